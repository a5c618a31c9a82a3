import { DateField, Show, TabbedShowLayout, TextField } from 'react-admin';
import { scrollTabs } from '../layout/ScrollTabs';
import { InvitationsTab } from './InvitationsTab';
import { MembersTab } from './MembersTab';
import { TeamsTab } from './TeamsTab';

/** An organization as an operator sees it (admin/organization/get): details, members, invitations and teams. */
export function OrganizationShow() {
  return (
    <Show>
      <TabbedShowLayout tabs={scrollTabs}>
        <TabbedShowLayout.Tab label="resources.organizations.tabs.details">
          <TextField source="name" />
          <TextField source="slug" />
          <TextField source="id" />
          <DateField source="createdAt" showTime />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.organizations.tabs.members" path="members">
          <MembersTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.organizations.tabs.invitations" path="invitations">
          <InvitationsTab />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.organizations.tabs.teams" path="teams">
          <TeamsTab />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </Show>
  );
}
