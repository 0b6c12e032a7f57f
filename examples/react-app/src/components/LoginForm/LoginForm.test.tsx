import userEvent from '@testing-library/user-event';
import { login } from '@/api/auth';
import { renderWithProviders, screen } from '@/test-utils';
import type { User } from '@/types/models';
import { LoginForm } from './LoginForm';

jest.mock('@/api/auth');

const mockLogin = jest.mocked(login);

const ada: User = { id: 1, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' };

describe('LoginForm', () => {
  it('renders the email and password fields', () => {
    renderWithProviders(<LoginForm />);

    expect(screen.getByRole('form', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('asks for both fields before calling the API', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(screen.getByRole('alert')).toHaveTextContent('Please enter your email and password.');
    expect(mockLogin).not.toHaveBeenCalled();
  });

  it('signs the user in and greets them', async () => {
    mockLogin.mockResolvedValue(ada);
    const onSuccess = jest.fn();
    const user = userEvent.setup();
    renderWithProviders(<LoginForm onSuccess={onSuccess} />);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Welcome back, Ada Lovelace!')).toBeInTheDocument();
    expect(mockLogin).toHaveBeenCalledWith({ email: 'ada@example.com', password: 'correct horse' });
    expect(onSuccess).toHaveBeenCalledWith(ada);
    expect(screen.queryByRole('form', { name: 'Sign in' })).not.toBeInTheDocument();
  });

  it('shows an error when the credentials are rejected', async () => {
    mockLogin.mockRejectedValue(new Error('401'));
    const user = userEvent.setup();
    renderWithProviders(<LoginForm />);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('greets an already signed in user', () => {
    renderWithProviders(<LoginForm />, { user: ada });

    expect(screen.getByText('Welcome back, Ada Lovelace!')).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });
});
