import Block from '@mui/icons-material/Block';
import Delete from '@mui/icons-material/Delete';
import LockOpen from '@mui/icons-material/LockOpen';
import PhonelinkErase from '@mui/icons-material/PhonelinkErase';
import { Box, Typography } from '@mui/material';
import { type ReactNode, useRef, useState } from 'react';
import { useDataProvider, useGetIdentity, useListContext, useTranslate } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import type { PromptValues } from '../common/PromptDialog';
import { usePageRefresh } from '../common/usePageRefresh';
import type { ConsoleDataProvider, User } from '../providers/dataProvider';
import { BulkResultDialog } from './BulkResultDialog';
import { banFields, banRequest } from './banExpiry';
import { type BulkResult, runBulk } from './runBulk';

type Kind = 'ban' | 'unban' | 'revoke' | 'remove';
type Target = { id: User['id']; email: string };

/** The emails a confirmation lists before "and N more". */
const NAMED = 10;

/** The users list's bulk actions on the selected rows: ban, unban, revoke sessions, remove. */
export function UserBulkActions() {
  return (
    <>
      <BulkUserAction kind="ban" icon={<Block />} color="error" />
      <BulkUserAction kind="unban" icon={<LockOpen />} />
      <BulkUserAction kind="revoke" icon={<PhonelinkErase />} color="error" />
      <BulkUserAction kind="remove" icon={<Delete />} color="error" />
    </>
  );
}

/**
 * One bulk action: one confirmation naming the count and the users, then the action on each user in turn, a
 * notification with the counts and a dialog saying, user by user, what was done and what was refused and why.
 * Closing it leaves the refused users selected, to try again or look at.
 */
function BulkUserAction({ kind, icon, color }: { kind: Kind; icon: ReactNode; color?: 'error' }) {
  const { selectedIds, data, onSelect } = useListContext<User>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const refresh = usePageRefresh();
  const { identity } = useGetIdentity();
  const [results, setResults] = useState<BulkResult[] | null>(null);
  const last = useRef<BulkResult[]>([]);

  // A selected user not on this page is named by id (the list keeps the selection across pages).
  const targets: Target[] = selectedIds.map((id) => ({
    id,
    email: data?.find((u) => u.id === id)?.email ?? String(id),
  }));
  const count = targets.length;
  const t = (key: string, args: Record<string, unknown> = {}) => translate(`resources.users.bulk.${key}`, args);

  const act = (user: Target, values: PromptValues) => {
    if (kind === 'ban') {
      const { reason, expiresIn } = banRequest(values, translate);
      return dataProvider.banUser(String(user.id), reason, expiresIn);
    }
    if (kind === 'unban') return dataProvider.unbanUser(String(user.id));
    if (kind === 'revoke') return dataProvider.revokeUserSessions(String(user.id));
    return dataProvider.delete('users', { id: user.id });
  };

  const summary = (done: BulkResult[]) => {
    const ok = done.filter((r) => r.ok).length;
    const action = t(`${kind}_done_many`);
    if (ok === done.length) return t('summary_all', { action, smart_count: ok });
    if (ok === 0) return t('summary_none', { smart_count: done.length });
    return t('summary_some', { action, ok, failed: done.length - ok, smart_count: done.length });
  };

  const self = targets.some((u) => u.id === identity?.id);
  const message = (
    <>
      {t(`${kind}_confirm`)}
      <Box component="ul" sx={{ my: 1, pl: 3 }} data-testid="bulk-targets">
        {targets.slice(0, NAMED).map((u) => (
          <li key={String(u.id)}>{u.email}</li>
        ))}
        {count > NAMED && <li>{t('more', { smart_count: count - NAMED })}</li>}
      </Box>
      {self && kind === 'revoke' && <Typography component="span">{t('revoke_self')}</Typography>}
    </>
  );

  return (
    <>
      <PromptButton
        label={`resources.users.bulk.${kind}`}
        icon={icon}
        color={color}
        title={t(`${kind}_title`, { smart_count: count })}
        message={message}
        fields={kind === 'ban' ? banFields(translate) : undefined}
        onConfirm={async (values) => {
          // A ban's end is read once, before any user is banned: a refused end stops the action as a whole.
          if (kind === 'ban') banRequest(values, translate);
          last.current = await runBulk(targets, (user) => act(user, values));
        }}
        success={() => {
          const done = last.current;
          const ok = done.filter((r) => r.ok).length;
          const type = ok === done.length ? 'success' : ok === 0 ? 'error' : 'warning';
          return { message: summary(done), type };
        }}
        after={async () => {
          await refresh();
          setResults(last.current);
        }}
      />
      {results && (
        <BulkResultDialog
          title={summary(results)}
          done={t(`${kind}_done`)}
          results={results}
          onClose={() => {
            setResults(null);
            onSelect(results.filter((r) => !r.ok).map((r) => r.id as User['id']));
          }}
        />
      )}
    </>
  );
}
