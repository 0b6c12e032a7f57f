export { Counter, default } from './Counter';
export type { CounterProps } from './Counter';
