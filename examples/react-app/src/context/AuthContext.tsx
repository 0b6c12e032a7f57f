import { createContext, ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import * as authApi from '@/api/auth';
import type { Credentials } from '@/api/auth';
import type { User } from '@/types/models';

export interface AuthContextValue {
  user: User | null;
  isAuthenticated: boolean;
  login: (credentials: Credentials) => Promise<User>;
  logout: () => void;
}

const AuthContext = createContext<AuthContextValue | undefined>(undefined);
AuthContext.displayName = 'AuthContext';

export interface AuthProviderProps {
  initialUser?: User | null;
  children?: ReactNode;
}

export function AuthProvider({ initialUser = null, children }: AuthProviderProps) {
  const [user, setUser] = useState<User | null>(initialUser);

  const login = useCallback(async (credentials: Credentials) => {
    const loggedIn = await authApi.login(credentials);
    setUser(loggedIn);
    return loggedIn;
  }, []);

  const logout = useCallback(() => {
    setUser(null);
    // Fire and forget: the session cookie is cleared server side.
    authApi.logout().catch(() => undefined);
  }, []);

  const value = useMemo(
    () => ({ user, isAuthenticated: user !== null, login, logout }),
    [user, login, logout],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) {
    throw new Error('useAuth must be used within an AuthProvider');
  }
  return context;
}
