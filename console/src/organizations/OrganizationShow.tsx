import { DateField, FunctionField, Show, TabbedShowLayout, TextField, useCanAccess } from 'react-admin';
import { OrganizationActivity } from '../audit/ActivityTab';
import { scrollTabs } from '../layout/ScrollTabs';
import type { FullOrganization } from '../providers/dataProvider';
import { InvitationsTab } from './InvitationsTab';
import { MembersTab } from './MembersTab';
import { OrganizationShowActions } from './OrganizationShowActions';
import { metadataText } from './organizationForm';
import { TeamsTab } from './TeamsTab';

/**
 * An organization as an operator sees it (admin/organization/get): details (with its logo address and metadata),
 * members, invitations and teams; edit and delete above the tabs.
 */
export function OrganizationShow() {
  // The Activity tab reads admin/list-events: only for a role holding audit: read.
  const canReadAudit = useCanAccess({ resource: 'events', action: 'list' }).canAccess;
  return (
    <Show actions={<OrganizationShowActions />}>
      <TabbedShowLayout tabs={scrollTabs}>
        <TabbedShowLayout.Tab label="resources.organizations.tabs.details">
          <TextField source="name" />
          <TextField source="slug" />
          <TextField source="id" />
          <TextField source="logo" emptyText="-" sx={{ wordBreak: 'break-all' }} />
          <FunctionField<FullOrganization>
            source="metadata"
            render={(o) => (
              <pre
                data-testid="org-metadata-shown"
                style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              >
                {o.metadata && Object.keys(o.metadata).length ? metadataText(o.metadata) : '-'}
              </pre>
            )}
          />
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
        {canReadAudit && (
          <TabbedShowLayout.Tab label="resources.organizations.tabs.activity" path="activity">
            <OrganizationActivity />
          </TabbedShowLayout.Tab>
        )}
      </TabbedShowLayout>
    </Show>
  );
}
