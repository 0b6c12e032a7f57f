/** The props of each mounted instance of a component wrapped by mockRecordingProps, in the
 * order the instances mounted. */
function recordedProps(component) {
  return component.mounted
    .filter((instance) => instance.committed)
    .map((instance) => instance.props);
}
