import { Login, LoginForm, PasswordInput, required, TextInput } from 'react-admin';

/** react-admin's sign-in page asking for the email (the API signs in by email; there are no user names). */
export function LoginPage() {
  return (
    <Login>
      <LoginForm>
        <TextInput
          autoFocus
          source="email"
          type="email"
          label="console.sign_in.email"
          autoComplete="username"
          validate={required()}
        />
        <PasswordInput
          source="password"
          label="ra.auth.password"
          autoComplete="current-password"
          validate={required()}
        />
      </LoginForm>
    </Login>
  );
}
