import { makeClient } from '../api/client';
import { makeAuthProvider } from './authProvider';
import { makeDataProvider } from './dataProvider';

/** The browser's providers: one typed client against `<origin>/api/auth`, cookies included. */
const client = makeClient();
export const authProvider = makeAuthProvider(client);
export const dataProvider = makeDataProvider(client);
