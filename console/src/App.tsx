import { Admin, Resource } from 'react-admin';
import applications from './applications';
import audit from './audit';
import { i18nProvider } from './i18n/i18nProvider';
import { Dashboard } from './layout/Dashboard';
import { Layout } from './layout/Layout';
import { LoginPage } from './layout/LoginPage';
import { darkTheme, lightTheme } from './layout/themes';
import organizations from './organizations';
import { authProvider, dataProvider } from './providers';
import users from './users';
import webhooks from './webhooks';

/** The admin console. The app bar's theme button switches light/dark (react-admin's themes, readable colours). */
export function App() {
  return (
    <Admin
      title="Identity console"
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      layout={Layout}
      loginPage={LoginPage}
      dashboard={Dashboard}
      theme={lightTheme}
      darkTheme={darkTheme}
      requireAuth
      disableTelemetry
    >
      <Resource name="users" {...users} recordRepresentation="email" />
      <Resource name="organizations" {...organizations} recordRepresentation="name" />
      <Resource name="events" {...audit} />
      <Resource name="webhooks" {...webhooks} recordRepresentation="url" />
      <Resource name="applications" {...applications} recordRepresentation="name" />
    </Admin>
  );
}
