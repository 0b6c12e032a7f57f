export { Countdown, formatTime, default } from './Countdown';
