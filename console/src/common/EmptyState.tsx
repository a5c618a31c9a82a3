import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';

/** The text a section shows when it has nothing to list. */
export function EmptyState({ message, testId }: { message: string; testId?: string }) {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary" sx={{ py: 2 }} data-testid={testId}>
      {translate(message)}
    </Typography>
  );
}
