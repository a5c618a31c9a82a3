import { Admin, defaultDarkTheme, defaultLightTheme, Resource } from 'react-admin';
import { i18nProvider } from './i18n/i18nProvider';
import { Dashboard } from './layout/Dashboard';
import { Layout } from './layout/Layout';
import organizations from './organizations';
import { authProvider, dataProvider } from './providers';
import users from './users';

/** The admin console. The app bar's theme button switches light/dark (react-admin default themes). */
export function App() {
  return (
    <Admin
      title="Identity console"
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      layout={Layout}
      dashboard={Dashboard}
      theme={defaultLightTheme}
      darkTheme={defaultDarkTheme}
      requireAuth
      disableTelemetry
    >
      <Resource name="users" {...users} recordRepresentation="email" />
      <Resource name="organizations" {...organizations} recordRepresentation="name" />
    </Admin>
  );
}
