import { Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  AddItemButton,
  ArrayInput,
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  FormDataConsumer,
  NumberInput,
  RadioButtonGroupInput,
  ReferenceInput,
  RemoveItemButton,
  required,
  SaveButton,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  Toolbar,
  useDataProvider,
  useTranslate,
} from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { type ApplicationValues, GRANT_TYPES, grantLabel } from './applicationForm';

const t = (key: string) => `resources.applications.${key}`;

/** A list of exact URIs, one text field a row, with Add and Remove buttons (react-admin's list editor). */
function UriList({ source, helperText }: { source: 'redirectUris' | 'postLogoutRedirectUris'; helperText: string }) {
  return (
    <ArrayInput source={source} helperText={helperText} data-testid={`${source}-editor`}>
      <SimpleFormIterator
        disableReordering
        disableClear
        fullWidth
        inline
        addButton={<AddItemButton label={t('add_uri')} />}
        removeButton={<RemoveItemButton label={t('remove_uri')} />}
        // The remove buttons always show (react-admin shows them on hover only, out of a keyboard's reach).
        sx={{
          '& .RaSimpleFormIterator-line': { borderBottom: 'none' },
          '& .RaSimpleFormIterator-action': { visibility: 'visible' },
        }}
      >
        <TextInput source="uri" label={t('fields.uri')} fullWidth helperText={false} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/**
 * The fields of an application's create and edit forms (docs/oauth-clients.md): the API checks the rules and its
 * refusals show under the field they name. A public application's authentication is none and its PKCE always on,
 * so those fields show for a confidential one only (what is sent follows the type, applicationForm.ts); the type
 * itself is chosen once, at creation.
 */
export function ApplicationInputs({ creating }: { creating: boolean }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data: scopes = [] } = useQuery({
    queryKey: ['applications', 'scopes'],
    queryFn: () => dataProvider.listOAuthScopes(),
  });
  const choices = (values: readonly string[], label: (v: string) => string) =>
    values.map((id) => ({ id, name: label(id) }));
  return (
    <>
      <TextInput source="name" validate={required()} fullWidth />
      <TextInput source="description" multiline fullWidth />
      <TextInput source="logoUri" fullWidth />
      {creating ? (
        <RadioButtonGroupInput
          source="type"
          choices={choices(['confidential', 'public'], (v) => translate(t(`type.${v}`)))}
          helperText={t('help.type')}
        />
      ) : (
        <FormDataConsumer<ApplicationValues>>
          {({ formData }) => (
            <Typography variant="body2" sx={{ my: 1 }} data-testid="application-type">
              {translate(t('fields.type'))}: {translate(t(`type.${formData.type}`))}
            </Typography>
          )}
        </FormDataConsumer>
      )}
      <CheckboxGroupInput
        source="grantTypes"
        choices={choices(GRANT_TYPES, grantLabel)}
        validate={required()}
        row={false}
      />
      <UriList source="redirectUris" helperText={t('help.redirectUris')} />
      <UriList source="postLogoutRedirectUris" helperText={t('help.postLogoutRedirectUris')} />
      <CheckboxGroupInput
        source="scopes"
        choices={choices(scopes, (s) => s)}
        validate={required()}
        helperText={t('help.scopes')}
      />
      <FormDataConsumer<ApplicationValues>>
        {({ formData }) =>
          formData.type === 'public' ? (
            <Typography variant="body2" sx={{ my: 1 }} data-testid="application-public-pkce">
              {translate(t('help.public_pkce'))}
            </Typography>
          ) : (
            <>
              <SelectInput
                source="tokenEndpointAuthMethod"
                choices={choices(['client_secret_basic', 'client_secret_post'], (v) => translate(t(`auth.${v}`)))}
                validate={required()}
              />
              <BooleanInput source="requirePkce" />
            </>
          )
        }
      </FormDataConsumer>
      <SelectInput
        source="accessTokenFormat"
        choices={choices(['opaque', 'jwt'], (v) => translate(t(`format.${v}`)))}
        validate={required()}
      />
      <NumberInput source="accessTokenTtlSec" min={60} max={86_400} helperText={t('help.lifetime')} />
      <NumberInput source="refreshTokenTtlSec" min={60} max={31_536_000} helperText={t('help.lifetime')} />
      <NumberInput source="idTokenTtlSec" min={60} max={86_400} helperText={t('help.lifetime')} />
      <BooleanInput source="firstParty" />
      <BooleanInput source="pairwiseSubject" />
      <TextInput source="backchannelLogoutUri" fullWidth />
      <ReferenceInput source="organizationId" reference="organizations">
        <AutocompleteInput
          label={t('fields.organizationId')}
          helperText={t('help.organizationId')}
          optionText="name"
          filterToQuery={(q: string) => ({ q })}
        />
      </ReferenceInput>
    </>
  );
}

/**
 * Save only (deleting asks first, on the application's page), in the page's flow: react-admin fixes its toolbar to
 * the bottom of a narrow window, where it would lie over the form's last fields and buttons.
 */
export function SaveToolbar() {
  return (
    <Toolbar sx={{ '&.RaToolbar-mobileToolbar': { position: 'static' } }}>
      <SaveButton />
    </Toolbar>
  );
}
