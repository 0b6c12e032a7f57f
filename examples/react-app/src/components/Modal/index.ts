export { Modal, default } from './Modal';
