export { Toast, default } from './Toast';
