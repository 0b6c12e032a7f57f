import { ChangeEvent, FormEvent, useState } from 'react';
import { SignupErrors, SignupValues, validateSignup } from './validation';
import './SignupForm.css';

export interface SignupFormProps {
  onSubmit: (values: { email: string; password: string }) => Promise<void> | void;
}

const initialValues: SignupValues = {
  email: '',
  password: '',
  confirmPassword: '',
  acceptTerms: false,
};

export function SignupForm({ onSubmit }: SignupFormProps) {
  const [values, setValues] = useState<SignupValues>(initialValues);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  const handleChange =
    (field: 'email' | 'password' | 'confirmPassword') => (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [field]: value }));
      setErrors((current) => ({ ...current, [field]: undefined }));
    };

  const handleTermsChange = (event: ChangeEvent<HTMLInputElement>) => {
    const { checked } = event.target;
    setValues((current) => ({ ...current, acceptTerms: checked }));
    setErrors((current) => ({ ...current, acceptTerms: undefined }));
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const validationErrors = validateSignup(values);
    setErrors(validationErrors);
    if (Object.keys(validationErrors).length > 0) return;

    setSubmitting(true);
    try {
      await onSubmit({ email: values.email.trim(), password: values.password });
      setSubmitted(true);
    } finally {
      setSubmitting(false);
    }
  };

  if (submitted) {
    return (
      <p className="signup-success" role="status">
        Thanks for signing up! Check {values.email.trim()} for a confirmation link.
      </p>
    );
  }

  return (
    <form className="signup-form" onSubmit={handleSubmit} noValidate aria-label="Sign up">
      <div className="form-field">
        <label htmlFor="signup-email">Email</label>
        <input
          id="signup-email"
          name="email"
          type="email"
          value={values.email}
          onChange={handleChange('email')}
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? 'signup-email-error' : undefined}
        />
        {errors.email && (
          <p id="signup-email-error" className="field-error">
            {errors.email}
          </p>
        )}
      </div>

      <div className="form-field">
        <label htmlFor="signup-password">Password</label>
        <input
          id="signup-password"
          name="password"
          type="password"
          value={values.password}
          onChange={handleChange('password')}
          aria-invalid={Boolean(errors.password)}
          aria-describedby={errors.password ? 'signup-password-error' : undefined}
        />
        {errors.password && (
          <p id="signup-password-error" className="field-error">
            {errors.password}
          </p>
        )}
      </div>

      <div className="form-field">
        <label htmlFor="signup-confirm-password">Confirm password</label>
        <input
          id="signup-confirm-password"
          name="confirmPassword"
          type="password"
          value={values.confirmPassword}
          onChange={handleChange('confirmPassword')}
          aria-invalid={Boolean(errors.confirmPassword)}
        />
        {errors.confirmPassword && <p className="field-error">{errors.confirmPassword}</p>}
      </div>

      <div className="form-field form-field--checkbox">
        <input
          id="signup-terms"
          name="acceptTerms"
          type="checkbox"
          checked={values.acceptTerms}
          onChange={handleTermsChange}
        />
        <label htmlFor="signup-terms">I accept the terms and conditions</label>
        {errors.acceptTerms && <p className="field-error">{errors.acceptTerms}</p>}
      </div>

      <button type="submit" className="signup-form__submit" disabled={submitting}>
        {submitting ? 'Creating account…' : 'Create account'}
      </button>
    </form>
  );
}

export default SignupForm;
