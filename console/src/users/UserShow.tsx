import { BooleanField, DateField, Labeled, Show, TabbedShowLayout, TextField, useCanAccess } from 'react-admin';
import { UserActivity } from '../audit/ActivityTab';
import { scrollTabs } from '../layout/ScrollTabs';
import { BanStatus } from './BanStatus';
import { UserAccounts } from './UserAccounts';
import { UserBanBadge } from './UserBanBadge';
import { UserOrganizations } from './UserOrganizations';
import { UserSecondFactor } from './UserSecondFactor';
import { UserSessions } from './UserSessions';
import { UserShowActions } from './UserShowActions';

export function UserShow() {
  // The Activity tab reads admin/list-events: only for a role holding audit: read.
  const canReadAudit = useCanAccess({ resource: 'events', action: 'list' }).canAccess;
  return (
    <Show actions={<UserShowActions />}>
      <UserBanBadge />
      <TabbedShowLayout tabs={scrollTabs}>
        <TabbedShowLayout.Tab label="resources.users.tabs.profile">
          <TextField source="id" />
          <TextField source="email" />
          <TextField source="name" />
          <TextField source="role" />
          <BooleanField source="emailVerified" />
          <UserSecondFactor label="resources.users.fields.twoFactorEnabled" />
          <BanStatus label="resources.users.fields.banned" />
          <TextField source="language" emptyText="-" />
          <DateField source="createdAt" showTime />
          <DateField source="updatedAt" showTime />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.sessions" path="sessions">
          <Labeled label="resources.users.tabs.sessions" fullWidth>
            <UserSessions />
          </Labeled>
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.accounts" path="accounts">
          <UserAccounts />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.users.tabs.organizations" path="organizations">
          <UserOrganizations />
        </TabbedShowLayout.Tab>
        {canReadAudit && (
          <TabbedShowLayout.Tab label="resources.users.tabs.activity" path="activity">
            <UserActivity />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}
