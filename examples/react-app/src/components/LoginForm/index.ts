export { LoginForm, default } from './LoginForm';
