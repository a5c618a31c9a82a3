import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
} from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import type { BulkResult } from './runBulk';

export interface BulkResultDialogProps {
  /** Already translated: what was done, with the counts. */
  title: string;
  /** Already translated: what a done row says ("Banned"). */
  done: string;
  results: BulkResult[];
  onClose: () => void;
}

/** After a bulk action: each user with what happened to them, done or refused with the API's reason. */
export function BulkResultDialog({ title, done, results, onClose }: BulkResultDialogProps) {
  const translate = useTranslate();
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs" data-testid="bulk-results">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <List dense disablePadding>
          {results.map((r) => (
            <ListItem key={String(r.id)} disableGutters data-testid={`bulk-result-${r.email}`}>
              <ListItemIcon sx={{ minWidth: 32 }}>
                {r.ok ? (
                  <CheckCircle color="success" titleAccess={translate('resources.users.bulk.ok')} />
                ) : (
                  <ErrorIcon color="error" titleAccess={translate('resources.users.bulk.failed_icon')} />
                )}
              </ListItemIcon>
              <ListItemText
                primary={r.email}
                secondary={r.ok ? done : translate('resources.users.bulk.failed', { error: r.error ?? '' })}
                slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained" autoFocus>
          {translate('ra.action.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
