import Check from '@mui/icons-material/Check';
import FilterList from '@mui/icons-material/FilterList';
import { ListItemIcon, ListItemText, ListSubheader, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { Button, useListContext, useTranslate } from 'react-admin';
import { isFilterSet, USER_FILTERS, type UserFilter } from '../providers/dataProvider';

/** Each filter's label (the inputs in UserList use the same keys). */
export const FILTER_LABELS: Record<UserFilter, string> = {
  role: 'resources.users.fields.role',
  banned: 'resources.users.filters.banned',
  emailVerified: 'resources.users.fields.emailVerified',
};
const HELP: Partial<Record<UserFilter, string>> = { banned: 'resources.users.filters.banned_help' };

/** The list's filters without the USER_FILTERS part (the search stays). */
const others = (filter: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(filter).filter(([key]) => !(USER_FILTERS as readonly string[]).includes(key)));

/**
 * list-users applies every filter the list sends (role, banned, emailVerified, together), so the users list shows
 * as many as the operator chooses: choosing one adds its input, choosing a shown one again removes it and its
 * value. The search box is separate and stays.
 */
export function UserFilterButton() {
  const { filterValues, displayedFilters = {}, setFilters, showFilter, hideFilter } = useListContext();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = USER_FILTERS.filter((f) => displayedFilters[f] || isFilterSet(filterValues[f]));

  const choose = (field: UserFilter) => {
    setAnchor(null);
    if (shown.includes(field)) return hideFilter(field);
    showFilter(field, undefined);
    setTimeout(() => document.querySelector<HTMLElement>(`[name='${field}']`)?.focus(), 50);
  };
  const removeAll = () => {
    setAnchor(null);
    setFilters(others(filterValues), {});
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
        <ListSubheader sx={{ lineHeight: 2.5 }}>{translate('resources.users.filters.all_apply')}</ListSubheader>
        {USER_FILTERS.map((field) => (
          <MenuItem
            key={field}
            selected={shown.includes(field)}
            aria-checked={shown.includes(field)}
            role="menuitemcheckbox"
            onClick={() => choose(field)}
          >
            <ListItemIcon>{shown.includes(field) ? <Check fontSize="small" /> : null}</ListItemIcon>
            <ListItemText
              primary={translate(FILTER_LABELS[field])}
              secondary={HELP[field] ? translate(HELP[field]) : undefined}
            />
          </MenuItem>
        ))}
        {shown.length > 0 && (
          <MenuItem onClick={removeAll}>
            <ListItemIcon />
            <ListItemText primary={translate('resources.users.filters.remove')} />
          </MenuItem>
        )}
      </Menu>
    </>
  );
}
