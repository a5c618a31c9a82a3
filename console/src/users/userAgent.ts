import UAParser from 'ua-parser-js';

/** What a session's user agent says about where it was opened, each part null when the agent does not say. */
export interface ParsedAgent {
  /** The kind of device: a phone, a tablet, a computer (a desktop system without a device), or another kind. */
  kind: 'phone' | 'tablet' | 'computer' | 'other' | null;
  /** Vendor and model when the agent names them ("Apple iPhone", "Samsung SM-G991B"). */
  model: string | null;
  /** Operating system and version ("iOS 17.1", "Windows 10", "Linux"). */
  os: string | null;
  /** Browser and major version ("Chrome 120", "Mobile Safari 17"). */
  browser: string | null;
}

const join = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(' ') || null;

/** Parses a session's user agent with ua-parser-js; an empty or unknown agent gives nulls. */
export function parseUserAgent(userAgent: string | null | undefined): ParsedAgent {
  if (!userAgent?.trim()) return { kind: null, model: null, os: null, browser: null };
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const osName = join(os.name, os.version);
  const kind =
    device.type === 'mobile'
      ? 'phone'
      : device.type === 'tablet'
        ? 'tablet'
        : device.type
          ? 'other'
          : osName
            ? 'computer'
            : null;
  return { kind, model: join(device.vendor, device.model), os: osName, browser: join(browser.name, browser.major) };
}
