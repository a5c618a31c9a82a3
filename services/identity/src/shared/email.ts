/** spec §3: emails are stored lowercase; the schema has already checked the format. */
export const normalizeEmail = (email: string): string => email.toLowerCase();
