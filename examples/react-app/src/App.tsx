import { useState } from 'react';
import { Accordion, AccordionSection } from '@/components/Accordion';
import { Counter } from '@/components/Counter';
import { Countdown } from '@/components/Countdown';
import { LoginForm } from '@/components/LoginForm';
import { Modal } from '@/components/Modal';
import { Pagination } from '@/components/Pagination';
import { SearchBox } from '@/components/SearchBox';
import { SignupForm } from '@/components/SignupForm';
import { ThemeToggle } from '@/components/ThemeToggle';
import { Toast } from '@/components/Toast';
import { TodoList } from '@/components/TodoList';
import { UserList } from '@/components/UserList';
import { UserMenu } from '@/components/UserMenu';
import { AppProviders } from '@/context/AppProviders';
import { useTheme } from '@/context/ThemeContext';
import type { Product } from '@/types/models';
import './App.css';

const faq: AccordionSection[] = [
  { id: 'what', title: 'What is this?', content: <p>A demo app that is half-way through a test migration.</p> },
  { id: 'why', title: 'Why migrate?', content: <p>Enzyme has no adapter for React 18.</p> },
];

function Dashboard() {
  const { theme } = useTheme();
  const [signInOpen, setSignInOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [toast, setToast] = useState<string | null>(null);

  const handleSelect = (product: Product) => setToast(`${product.name} added to your basket`);

  return (
    <div className={`app app--${theme}`}>
      <header className="app__header">
        <h1>Testmend demo</h1>
        <ThemeToggle />
        <UserMenu onSignIn={() => setSignInOpen(true)} />
      </header>

      <main className="app__main">
        <SearchBox onSelect={handleSelect} />
        <Counter label="Guests" min={0} max={10} />
        <Countdown seconds={300} label="Offer ends in" autoStart={false} />
        <TodoList />
        <UserList />
        <Pagination page={page} totalPages={12} onPageChange={setPage} />
        <SignupForm onSubmit={() => setToast('Account created')} />
        <Accordion sections={faq} />
      </main>

      <Modal isOpen={signInOpen} title="Sign in" onClose={() => setSignInOpen(false)}>
        <LoginForm onSuccess={() => setSignInOpen(false)} />
      </Modal>

      {toast && <Toast message={toast} variant="success" onDismiss={() => setToast(null)} />}
    </div>
  );
}

export function App() {
  return (
    <AppProviders>
      <Dashboard />
    </AppProviders>
  );
}

export default App;
