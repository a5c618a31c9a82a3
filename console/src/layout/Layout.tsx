import type { ReactNode } from 'react';
import { Layout as RaLayout } from 'react-admin';
import { ImpersonationBanner } from './ImpersonationBanner';

/** react-admin's layout with the impersonation banner above every page. */
export function Layout({ children }: { children: ReactNode }) {
  return (
    <RaLayout>
      <ImpersonationBanner />
      {children}
    </RaLayout>
  );
}
