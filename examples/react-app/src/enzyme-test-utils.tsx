/**
 * Enzyme helpers kept around until the remaining suites are migrated to
 * Testing Library. `mountWithProviders` is the Enzyme counterpart of
 * `renderWithProviders` in '@/test-utils'.
 */
import { mount, MountRendererProps, ReactWrapper } from 'enzyme';
import type { ReactElement } from 'react';
import { act } from 'react-dom/test-utils';
import { AppProviders, AppProvidersProps } from '@/context/AppProviders';
import type { ProviderOptions } from '@/test-utils';

export type MountWithProvidersOptions = ProviderOptions & Omit<MountRendererProps, 'wrappingComponent'>;

export function mountWithProviders<P>(
  ui: ReactElement<P>,
  { theme, user, ...options }: MountWithProvidersOptions = {},
): ReactWrapper<P> {
  const wrappingComponentProps: AppProvidersProps = { initialTheme: theme, initialUser: user };
  return mount(ui, { wrappingComponent: AppProviders, wrappingComponentProps, ...options });
}

/** Lets pending promise callbacks run inside act(), then syncs the wrapper. */
export async function flushPromises(wrapper?: ReactWrapper): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  wrapper?.update();
}
