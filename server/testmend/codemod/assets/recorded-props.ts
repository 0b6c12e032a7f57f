/** The props of each mounted instance of a component wrapped by mockRecordingProps, in the
 * order the instances mounted. */
function recordedProps(component: unknown): any[] {
  return (component as { mounted: { props: any; committed: boolean }[] }).mounted
    .filter((instance) => instance.committed)
    .map((instance) => instance.props);
}
