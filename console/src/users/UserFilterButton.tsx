import FilterList from '@mui/icons-material/FilterList';
import { ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
import { useEffect, useState } from 'react';
import { Button, useListContext, useTranslate } from 'react-admin';
import { appliedUserFilter, isFilterSet, USER_FILTERS, type UserFilter } from '../providers/dataProvider';

/** Each filter's label (the inputs in UserList use the same keys). */
export const FILTER_LABELS: Record<UserFilter, string> = {
  role: 'resources.users.fields.role',
  banned: 'resources.users.filters.banned',
  emailVerified: 'resources.users.fields.emailVerified',
};
const HELP: Partial<Record<UserFilter, string>> = { banned: 'resources.users.filters.banned_help' };

/** The list's filters without the one-of-USER_FILTERS part (the search stays). */
const others = (filter: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(filter).filter(([key]) => !(USER_FILTERS as readonly string[]).includes(key)));

/**
 * list-users applies one filter (filterField/filterValue), so the users list offers one at a time: choosing a
 * filter replaces the one shown (its input goes, the new one comes), and a link naming several is narrowed to the
 * one the API gets. The search box is separate (searchField/searchValue) and stays.
 */
export function UserFilterButton() {
  const { filterValues, displayedFilters = {}, setFilters } = useListContext();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = USER_FILTERS.filter((f) => displayedFilters[f] || isFilterSet(filterValues[f]));
  const current = appliedUserFilter(filterValues) ?? shown[0];

  useEffect(() => {
    if (shown.length <= 1 || !current) return;
    const kept = isFilterSet(filterValues[current]) ? { [current]: filterValues[current] } : {};
    setFilters({ ...others(filterValues), ...kept }, { [current]: true });
  }, [shown.length, current, filterValues, setFilters]);

  const choose = (field: UserFilter | null) => {
    setAnchor(null);
    if (field === current) return;
    setFilters(others(filterValues), field ? { [field]: true } : {});
    if (field) setTimeout(() => document.querySelector<HTMLElement>(`[name='${field}']`)?.focus(), 50);
  };

  return (
    <>
      <Button
        label="ra.action.add_filter"
        aria-haspopup="menu"
        aria-expanded={!!anchor}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <FilterList />
      </Button>
      <Menu anchorEl={anchor} open={!!anchor} onClose={() => setAnchor(null)}>
        <ListSubheader sx={{ lineHeight: 2.5 }}>{translate('resources.users.filters.one_at_a_time')}</ListSubheader>
        {USER_FILTERS.map((field) => (
          <MenuItem key={field} selected={field === current} onClick={() => choose(field)}>
            <ListItemText
              primary={translate(FILTER_LABELS[field])}
              secondary={HELP[field] ? translate(HELP[field]) : undefined}
            />
          </MenuItem>
        ))}
        {current && (
          <MenuItem onClick={() => choose(null)}>
            <ListItemText primary={translate('resources.users.filters.remove')} />
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
