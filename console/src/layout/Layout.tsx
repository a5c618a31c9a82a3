import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { AppBar } from './AppBar';
import { ImpersonationBanner } from './ImpersonationBanner';
import { Sidebar } from './Sidebar';

/** react-admin's layout with the impersonation banner above every page. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    // min-width 0: the content column may shrink to a narrow window; wide tables then scroll inside (ScrollX).
    <RaLayout
      appBar={AppBar}
      sidebar={Sidebar}
      sx={{ minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-content': { minWidth: 0 } }}
    >
      <ImpersonationBanner />
      {children}
    </RaLayout>
  );
}
