/** The PUBLIC_URL the tests' service runs with (a module of its own: the loopback OpenID provider needs only it). */
export const PUBLIC_URL = 'http://localhost:3000';
