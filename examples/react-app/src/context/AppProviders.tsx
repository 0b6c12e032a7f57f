import type { ReactNode } from 'react';
import type { Theme, User } from '@/types/models';
import { AuthProvider } from './AuthContext';
import { ThemeProvider } from './ThemeContext';

export interface AppProvidersProps {
  initialTheme?: Theme;
  initialUser?: User | null;
  children?: ReactNode;
}

export function AppProviders({ initialTheme, initialUser, children }: AppProvidersProps) {
  return (
    <ThemeProvider initialTheme={initialTheme}>
      <AuthProvider initialUser={initialUser}>{children}</AuthProvider>
    </ThemeProvider>
  );
}
