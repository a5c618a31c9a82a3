import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import QRCode from 'qrcode';
import { type FormEvent, useState } from 'react';
import { useDataProvider, useLogout, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';

type Step =
  | { kind: 'password' }
  | { kind: 'code'; uri: string; qr: string; codes: string[] }
  | { kind: 'codes'; codes: string[] };

/** The secret an authenticator app reads, shown as text for an app on the same device. */
const secretOf = (uri: string) => new URL(uri).searchParams.get('secret') ?? '';

/**
 * The admin second-factor policy's enrolment (docs/console.md): password, then the otpauth URI as a QR code, then a
 * first code, then the backup codes to save; only then does the console show its menu (`onDone`).
 */
export function EnrolSecondFactor({ onDone }: { onDone: () => void }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const logout = useLogout();
  const [step, setStep] = useState<Step>({ kind: 'password' });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (event: FormEvent, work: () => Promise<void>) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await work();
      setValue('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const t = (key: string) => translate(`console.enrol.${key}`);
  return (
    <Box component="main" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
      <Card sx={{ maxWidth: 480, width: '100%' }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {t('title')}
          </Typography>
          <Typography variant="body2" sx={{ mb: 2 }}>
            {t('intro')}
          </Typography>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          {step.kind === 'password' && (
            <form
              onSubmit={(e) =>
                run(e, async () => {
                  const { totpURI, backupCodes } = await dataProvider.enableTwoFactor(value);
                  const qr = await QRCode.toDataURL(totpURI, { margin: 1, width: 220 });
                  setStep({ kind: 'code', uri: totpURI, qr, codes: backupCodes });
                })
              }
            >
              <TextField
                label={t('password')}
                type="password"
                autoComplete="current-password"
                value={value}
                onChange={(e) => setValue(e.target.value)}
                required
                fullWidth
                autoFocus
              />
              <Box sx={{ display: 'flex', gap: 1, mt: 2, flexWrap: 'wrap' }}>
                <Button type="submit" variant="contained" disabled={busy || !value}>
                  {t('continue')}
                </Button>
                <Button onClick={() => logout()}>{translate('ra.auth.logout')}</Button>
              </Box>
            </form>
          )}
          {step.kind === 'code' && (
            <form
              onSubmit={(e) =>
                run(e, async () => {
                  await dataProvider.verifyTotp(value.trim());
                  setStep({ kind: 'codes', codes: step.codes });
                })
              }
            >
              <Typography variant="body2">{t('scan')}</Typography>
              <Box component="img" src={step.qr} alt={t('qr_alt')} sx={{ display: 'block', my: 2, maxWidth: '100%' }} />
              <Typography variant="body2" sx={{ wordBreak: 'break-all', mb: 2 }}>
                {t('secret')}: <code data-testid="totp-secret">{secretOf(step.uri)}</code>
              </Typography>
              <TextField
                label={t('code')}
                value={value}
                onChange={(e) => setValue(e.target.value)}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } }}
                required
                fullWidth
                autoFocus
              />
              <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={busy || !value}>
                {t('verify')}
              </Button>
            </form>
          )}
          {step.kind === 'codes' && (
            <>
              <Typography variant="body2">{t('backup_codes')}</Typography>
              <Box component="ul" data-testid="backup-codes" sx={{ fontFamily: 'monospace', columns: 2, my: 2 }}>
                {step.codes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </Box>
              <Button variant="contained" onClick={onDone}>
                {t('saved')}
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
