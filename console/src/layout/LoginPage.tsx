import {
  Alert,
  Button,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Form, Login, PasswordInput, required, TextInput, useLogin, useNotify, useTranslate } from 'react-admin';
import { type SecondFactorMethod, SecondFactorNeeded } from '../providers/authProvider';
import { productName } from './productName';
import { codeRefusal } from './signInSteps';

type Step = { kind: 'password'; notice?: string } | { kind: 'code'; email: string };

/**
 * react-admin's sign-in page, in two steps: the email and password (the API signs in by email; there are no user
 * names), then, for an account with a second factor, a code from the authenticator app or a backup code
 * (docs/console.md "Signing in"). Either step that succeeds enters the console as react-admin's sign-in does. Above
 * both, the product's name (productName.ts), so a person with several consoles knows which one this is.
 */
export function LoginPage() {
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [email, setEmail] = useState('');
  const translate = useTranslate();
  return (
    <Login>
      <CardContent sx={{ width: 300, pb: 0, textAlign: 'center' }}>
        <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {productName()}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {translate('console.sign_in.subtitle')}
        </Typography>
      </CardContent>
      {step.kind === 'code' ? (
        <CodeStep email={step.email} onRestart={(notice) => setStep({ kind: 'password', notice })} />
      ) : (
        <PasswordStep
          email={email}
          notice={step.notice}
          onSecondFactor={(typed) => {
            setEmail(typed);
            setStep({ kind: 'code', email: typed });
          }}
        />
      )}
    </Login>
  );
}

/** The password step; back from the code step it keeps the email, and says why when the sign-in had to start over. */
function PasswordStep(props: { email: string; notice?: string; onSecondFactor: (email: string) => void }) {
  const { email, notice, onSecondFactor } = props;
  const login = useLogin();
  const notify = useNotify();
  const translate = useTranslate();
  const [loading, setLoading] = useState(false);

  const submit = (values: Record<string, string>) => {
    setLoading(true);
    login({ email: values.email, password: values.password })
      .then(() => setLoading(false))
      .catch((error: unknown) => {
        setLoading(false);
        if (error instanceof SecondFactorNeeded) return onSecondFactor(values.email);
        const message = error instanceof Error && error.message ? error.message : 'ra.auth.sign_in_error';
        notify(message, { type: 'error', messageArgs: { _: message } });
      });
  };

  return (
    <Form onSubmit={submit} mode="onChange" noValidate defaultValues={{ email, password: '' }}>
      <CardContent sx={{ width: 300, pb: 2 }}>
        {notice && (
          <Alert severity="warning" role="alert" sx={{ mb: 1 }} data-testid="sign-in-notice">
            {translate(notice)}
          </Alert>
        )}
        <TextInput
          autoFocus={!email}
          source="email"
          type="email"
          label="console.sign_in.email"
          autoComplete="username"
          validate={required()}
        />
        <PasswordInput
          autoFocus={!!email}
          source="password"
          label="ra.auth.password"
          autoComplete="current-password"
          validate={required()}
        />
        <Button variant="contained" type="submit" color="primary" disabled={loading} fullWidth sx={{ mt: 2 }}>
          {loading ? <CircularProgress size={19} thickness={3} /> : translate('ra.auth.sign_in')}
        </Button>
      </CardContent>
    </Form>
  );
}

/**
 * The second step of a pending sign-in: a TOTP code (or a backup code), optionally trusting this browser. A wrong
 * code is said under the field, which keeps the focus (the message is an alert, so it is read out); a sign-in that
 * cannot go on (expired, its attempts spent, the account locked) goes back to the password step, saying why.
 */
function CodeStep({ email, onRestart }: { email: string; onRestart: (notice?: string) => void }) {
  const login = useLogin();
  const translate = useTranslate();
  const [method, setMethod] = useState<SecondFactorMethod>('totp');
  const [code, setCode] = useState('');
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const t = (key: string, options?: Record<string, unknown>) => translate(`console.sign_in.two_factor.${key}`, options);

  // The field has the focus when the step opens and after each switch between the two kinds of code.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the switch itself is the cue
  useEffect(() => input.current?.focus(), [method]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !code.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await login({ secondFactor: method, code, trustDevice });
    } catch (refused) {
      const { restart, message } = codeRefusal(refused);
      if (restart) return onRestart(message);
      setError(translate(message, { _: message }));
      input.current?.focus();
      input.current?.select();
    } finally {
      setBusy(false);
    }
  };

  const switchTo = (next: SecondFactorMethod) => {
    setMethod(next);
    setCode('');
    setError(null);
  };

  const totp = method === 'totp';
  return (
    <form onSubmit={submit} noValidate aria-labelledby="two-factor-title">
      <CardContent sx={{ width: 300, pb: 2 }}>
        <Typography id="two-factor-title" variant="h6" component="h2" gutterBottom>
          {t('title')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {t(totp ? 'intro_totp' : 'intro_backup', { email })}
        </Typography>
        <TextField
          inputRef={input}
          name="code"
          label={t(totp ? 'code' : 'backup_code')}
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={!!error}
          helperText={error}
          required
          fullWidth
          margin="dense"
          slotProps={{
            htmlInput: totp
              ? { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 7, 'data-testid': 'two-factor-code' }
              : { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, 'data-testid': 'two-factor-code' },
            formHelperText: { role: 'alert' },
          }}
        />
        <FormControlLabel
          control={<Checkbox checked={trustDevice} onChange={(e) => setTrustDevice(e.target.checked)} />}
          label={<Typography variant="body2">{t('trust')}</Typography>}
          sx={{ mt: 1 }}
        />
        <Stack spacing={1} sx={{ mt: 2 }}>
          <Button type="submit" variant="contained" fullWidth disabled={busy || !code.trim()}>
            {busy ? <CircularProgress size={19} thickness={3} aria-label={t('verify')} /> : t('verify')}
          </Button>
          <Button fullWidth onClick={() => switchTo(totp ? 'backup-code' : 'totp')} disabled={busy}>
            {t(totp ? 'use_backup' : 'use_totp')}
          </Button>
          <Button fullWidth onClick={() => onRestart()} disabled={busy}>
            {translate('console.actions.cancel')}
          </Button>
        </Stack>
      </CardContent>
    </form>
  );
}
