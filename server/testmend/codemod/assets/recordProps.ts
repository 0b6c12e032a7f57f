// Written by testmend for tests migrated from Enzyme that read the props a child component
// received. An assertion on what the child renders would survive a refactor of those props:
// replace these reads with one when you can.
import * as React from 'react';

type Props = Record<string, unknown>;
type Instance = { props: Props; committed: boolean };

const instances = new WeakMap<object, Instance[]>();

// What React reads on a component type itself; every other static member (`Alert.Link`,
// `Alert.Heading`) is the module's API, which the wrapper keeps.
const REACT_STATICS = new Set([
  '$$typeof',
  'render',
  'type',
  'compare',
  'displayName',
  'defaultProps',
  'propTypes',
  'contextType',
  'contextTypes',
  'childContextTypes',
  'getDerivedStateFromProps',
  'getDerivedStateFromError',
  'prototype',
  'length',
  'name',
  'caller',
  'arguments',
]);

/**
 * `actual` (a module) with its components `names` wrapped: each records the props it last
 * rendered with while it is mounted (read them with `recordedProps`), and renders as before, or
 * only its children when it is one of `unrendered`. Use it in a jest.mock factory:
 * `jest.mock('./Item', () => (jest.requireActual('./recordProps') as typeof import('./recordProps')).mockRecordingProps(jest.requireActual('./Item'), ['Item']))`.
 */
export function mockRecordingProps(
  actual: unknown,
  names: string[],
  unrendered: string[] = [],
): Record<string, unknown> {
  const wrapped: Record<string, unknown> = { ...(actual as object), __esModule: true };
  names.forEach((name) => {
    const Component = (actual as Record<string, unknown>)[name] as React.ComponentType<Props>;
    const mounted: Instance[] = [];
    const Recording = React.forwardRef<unknown, Props>((props, ref) => {
      const self = React.useRef<Instance | null>(null);
      if (self.current === null) {
        self.current = { props, committed: false };
        mounted.push(self.current);
      }
      self.current.props = props;
      React.useLayoutEffect(() => {
        const instance = self.current as Instance;
        instance.committed = true;
        return () => {
          mounted.splice(mounted.indexOf(instance), 1);
        };
      }, []);
      if (unrendered.includes(name)) {
        const children: unknown = Reflect.get(props, 'children');
        return typeof children === 'function' || children === undefined
          ? null
          : React.createElement(React.Fragment, null, children as React.ReactNode);
      }
      return React.createElement(Component, ref ? { ...props, ref } : props);
    });
    Recording.displayName = Component.displayName || Component.name;
    (Recording as { defaultProps?: unknown }).defaultProps = Component.defaultProps;
    Object.getOwnPropertyNames(Component).forEach((key) => {
      const descriptor = Object.getOwnPropertyDescriptor(Component, key);
      if (!REACT_STATICS.has(key) && descriptor) Object.defineProperty(Recording, key, descriptor);
    });
    // A class's prototype stays reachable through the wrapper: its instances still use it, so
    // a test's `jest.spyOn(Dropdown.prototype, 'toggle')` spies on what they call.
    if (typeof Component === 'function' && Component.prototype) {
      Object.defineProperty(Recording, 'prototype', { value: Component.prototype });
    }
    instances.set(Recording, mounted);
    wrapped[name] = Recording;
  });
  return wrapped;
}

/** A component as JSX takes it: a function or a class of props `P`. Its statics are not
 * compared (a `propTypes` that allows `null` where `P` does not, as react-markdown's, is no
 * `React.ComponentType<P>`). */
type ComponentOf<P> = ((props: P) => unknown) | (new (props: P) => unknown);

/** The props of each mounted instance of a component wrapped by `mockRecordingProps`, in the
 * order the instances mounted. */
export function recordedProps<P>(component: ComponentOf<P>): P[] {
  return (instances.get(component) ?? [])
    .filter((instance) => instance.committed)
    .map((instance) => instance.props as unknown as P);
}
