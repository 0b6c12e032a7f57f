export { SignupForm, default } from './SignupForm';
export { validateSignup } from './validation';
