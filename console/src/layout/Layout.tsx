import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Layout as RaLayout, useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { AppBar } from './AppBar';
import { EnrolSecondFactor } from './EnrolSecondFactor';
import { ImpersonationBanner } from './ImpersonationBanner';
import { Sidebar } from './Sidebar';

/**
 * react-admin's layout with the impersonation banner above every page. An operator held to the admin
 * second-factor policy without a second factor gets the enrolment page instead, before any menu.
 */
export function Layout({ children }: { children: ReactNode }) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const gate = useQuery({
    queryKey: ['second-factor-required'],
    queryFn: () => dataProvider.secondFactorRequired(),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (gate.isPending) return null;
  if (gate.data) return <EnrolSecondFactor onDone={() => gate.refetch()} />;
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
