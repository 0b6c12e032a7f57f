/** `actual` (a module) with its components `names` wrapped: each records the props it last
 * rendered with while it is mounted (read them with recordedProps), and renders as before, or
 * only its children when it is one of `unrendered`. */
function mockRecordingProps(actual, names, unrendered = []) {
  const react = jest.requireActual('react');
  const wrapped = { ...actual, __esModule: true };
  for (const name of names) {
    const Component = actual[name];
    const mounted = [];
    const Recording = react.forwardRef((props, ref) => {
      const self = react.useRef(null);
      if (self.current === null) {
        self.current = { props, committed: false };
        mounted.push(self.current);
      }
      self.current.props = props;
      react.useLayoutEffect(() => {
        self.current.committed = true;
        return () => {
          mounted.splice(mounted.indexOf(self.current), 1);
        };
      }, []);
      if (unrendered.includes(name)) {
        return typeof props.children === 'function' || props.children === undefined
          ? null
          : props.children;
      }
      return react.createElement(Component, ref ? { ...props, ref } : props);
    });
    Recording.defaultProps = Component.defaultProps;
    Recording.displayName = Component.displayName || Component.name;
    Recording.mounted = mounted;
    wrapped[name] = Recording;
  }
  return wrapped;
}
