import { type Theme, useMediaQuery } from '@mui/material';

/** True on a phone-width window: lists switch to a one-column SimpleList (react-admin's responsive pattern). */
export const useNarrow = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/** A table column shown from the `sm` breakpoint up: phone-width windows keep the essential columns only. */
export const wideOnly = { display: { xs: 'none', sm: 'table-cell' } } as const;
