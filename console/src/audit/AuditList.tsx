import { Autocomplete, Box, Button, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Title, useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { type AuditFilter, typeChoices } from './auditEvents';
import { EventTable } from './EventTable';
import { useEventFeed } from './useEventFeed';

const TYPES = typeChoices();
const TEXT_FILTERS = ['targetId', 'organizationId'] as const;

/** Picks an actor by email (admin/list-users' email search); picking one sets the actor id filter. */
function ActorByEmail({ onPick }: { onPick: (id: string) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [text, setText] = useState('');
  const { data: users = [] } = useQuery({
    queryKey: ['events', 'actor-search', text],
    queryFn: () => dataProvider.searchUsersByEmail(text),
    enabled: text.trim().length > 1,
  });
  return (
    <Autocomplete
      fullWidth
      sx={{ width: 240, maxWidth: '100%' }}
      size="small"
      options={users}
      filterOptions={(options) => options}
      getOptionLabel={(user) => user.email}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      onInputChange={(_, value) => setText(value)}
      onChange={(_, user) => user && onPick(user.id)}
      noOptionsText={translate(text.trim().length > 1 ? 'console.search.none' : 'console.search.type')}
      renderInput={(params) => <TextField {...params} label={translate('resources.events.filters.actor_email')} />}
    />
  );
}

/**
 * The audit trail (admin/list-events), newest first. Every filter shown is sent (they combine); the list pages on
 * with the API's cursor ("Load more"): the API gives no total, so none is shown.
 */
export function AuditList() {
  const translate = useTranslate();
  const [draft, setDraft] = useState<AuditFilter>({});
  const [filter, setFilter] = useState<AuditFilter>({});
  // Typing settles before a call: the filters apply 400 ms after the last change.
  useEffect(() => {
    const timer = setTimeout(() => setFilter(draft), 400);
    return () => clearTimeout(timer);
  }, [draft]);
  const filters = useMemo(() => [filter], [filter]);
  const feed = useEventFeed(['audit'], filters);
  const set = (key: keyof AuditFilter) => (value: string) => setDraft((before) => ({ ...before, [key]: value }));
  const field = (key: keyof AuditFilter, type = 'text') => (
    <TextField
      key={key}
      size="small"
      fullWidth={false}
      type={type}
      label={translate(`resources.events.filters.${key}`)}
      value={draft[key] ?? ''}
      onChange={(e) => set(key)(e.target.value)}
      slotProps={type === 'datetime-local' ? { inputLabel: { shrink: true } } : undefined}
      sx={{ minWidth: 180 }}
    />
  );
  return (
    <Box sx={{ pt: 2 }}>
      <Title title={translate('resources.events.name', { smart_count: 2 })} />
      <Box
        component="form"
        role="search"
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}
        onSubmit={(e) => e.preventDefault()}
      >
        {field('actorId')}
        <ActorByEmail onPick={set('actorId')} />
        {TEXT_FILTERS.map((key) => field(key))}
        <Autocomplete
          fullWidth
          freeSolo
          size="small"
          sx={{ width: 260, maxWidth: '100%' }}
          options={TYPES}
          inputValue={draft.type ?? ''}
          onInputChange={(_, value) => set('type')(value)}
          renderInput={(params) => <TextField {...params} label={translate('resources.events.filters.type')} />}
        />
        {field('from', 'datetime-local')}
        {field('to', 'datetime-local')}
        <Button onClick={() => setDraft({})}>{translate('resources.events.filters.clear')}</Button>
      </Box>
      <EventTable feed={feed} />
    </Box>
  );
}
