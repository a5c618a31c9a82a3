import { Box } from '@mui/material';
import {
  BooleanField,
  DateField,
  FunctionField,
  ReferenceField,
  Show,
  SimpleShowLayout,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { DeleteApplicationButton, EditApplicationButton, RotateApplicationSecretButton } from './ApplicationButtons';
import { type Application, grantLabel } from './applicationForm';

/** The application's own actions; they wrap onto more rows in a narrow window. */
function Actions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <EditApplicationButton />
      <RotateApplicationSecretButton />
      <DeleteApplicationButton />
    </TopToolbar>
  );
}

/** A list of exact URIs, one a line (they break anywhere in a narrow window), or "None". */
function UriLines({ uris, testId }: { uris: readonly string[]; testId: string }) {
  const translate = useTranslate();
  if (!uris.length) return <span>{translate('resources.applications.none')}</span>;
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }} data-testid={testId}>
      {uris.map((uri) => (
        <li key={uri} style={{ wordBreak: 'break-all' }}>
          {uri}
        </li>
      ))}
    </Box>
  );
}

/**
 * One application (never its secret: the API answers it only to create and rotate): what it is, where it may
 * send users, what it may ask for, its tokens, its owner, and who registered it when.
 */
export function ApplicationShow() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.applications.${key}`);
  const seconds = (value: number | null) => (value === null ? t('default_lifetime') : `${value}`);
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="clientId" sx={{ wordBreak: 'break-all' }} />
        <FunctionField<Application> source="type" render={(a) => t(`type.${a.type}`)} />
        <TextField source="description" emptyText="-" />
        <TextField source="logoUri" emptyText="-" sx={{ wordBreak: 'break-all' }} />
        <FunctionField<Application>
          source="redirectUris"
          render={(a) => <UriLines uris={a.redirectUris} testId="application-redirect-uris" />}
        />
        <FunctionField<Application>
          source="postLogoutRedirectUris"
          render={(a) => <UriLines uris={a.postLogoutRedirectUris} testId="application-post-logout-uris" />}
        />
        <FunctionField<Application> source="grantTypes" render={(a) => a.grantTypes.map(grantLabel).join(', ')} />
        <FunctionField<Application> source="scopes" render={(a) => a.scopes.join(' ')} />
        <FunctionField<Application>
          source="tokenEndpointAuthMethod"
          render={(a) => t(`auth.${a.tokenEndpointAuthMethod}`)}
        />
        <BooleanField source="requirePkce" />
        <FunctionField<Application> source="accessTokenFormat" render={(a) => t(`format.${a.accessTokenFormat}`)} />
        <FunctionField<Application> source="accessTokenTtlSec" render={(a) => seconds(a.accessTokenTtlSec)} />
        <FunctionField<Application> source="refreshTokenTtlSec" render={(a) => seconds(a.refreshTokenTtlSec)} />
        <FunctionField<Application> source="idTokenTtlSec" render={(a) => seconds(a.idTokenTtlSec)} />
        <BooleanField source="firstParty" />
        <BooleanField source="pairwiseSubject" />
        <TextField source="backchannelLogoutUri" emptyText="-" sx={{ wordBreak: 'break-all' }} />
        <ReferenceField source="organizationId" reference="organizations" link="show" emptyText={t('service_own')}>
          <TextField source="name" />
        </ReferenceField>
        <ReferenceField source="createdBy" reference="users" link="show" emptyText="-">
          <TextField source="email" />
        </ReferenceField>
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <DateField source="previousSecretExpiresAt" showTime emptyText="-" />
      </SimpleShowLayout>
    </Show>
  );
}
