/**
 * Testing Library helpers. Import from '@/test-utils' instead of
 * '@testing-library/react' so that components are rendered inside the same
 * providers the app uses.
 */
import { render, RenderOptions, RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { AppProviders } from '@/context/AppProviders';
import type { Theme, User } from '@/types/models';

export interface ProviderOptions {
  theme?: Theme;
  user?: User | null;
}

export type RenderWithProvidersOptions = ProviderOptions & Omit<RenderOptions, 'wrapper' | 'queries'>;

export function renderWithProviders(
  ui: ReactElement,
  { theme, user, ...options }: RenderWithProvidersOptions = {},
): RenderResult {
  function Wrapper({ children }: { children?: ReactNode }) {
    return (
      <AppProviders initialTheme={theme} initialUser={user}>
        {children}
      </AppProviders>
    );
  }

  return render(ui, { wrapper: Wrapper, ...options });
}

export * from '@testing-library/react';
export { renderWithProviders as render };
