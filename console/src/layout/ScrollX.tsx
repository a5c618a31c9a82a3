import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/** A wide table scrolls inside its own box in a narrow window; the page itself never scrolls sideways. */
export function ScrollX({ children }: { children: ReactNode }) {
  return <Box sx={{ overflowX: 'auto', maxWidth: '100%' }}>{children}</Box>;
}
