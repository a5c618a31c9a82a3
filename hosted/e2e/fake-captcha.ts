import { once } from 'node:events';
import { createServer } from 'node:http';

/**
 * A stand-in for a bot-check provider's widget script, on loopback (the browser tests reach nothing else): it
 * defines Turnstile's browser API (`turnstile.render`, `reset`, `remove`), renders a labelled checkbox that hands
 * over `fake-token-<n>` when ticked, and calls the `?onload=` global as the real script does. The service verifies
 * the token against the service tests' loopback siteverify server (CAPTCHA_SITE_VERIFY_URL), so the whole path
 * from the widget to the provider's answer is real HTTP.
 */
const WIDGET = `(() => {
  const params = new URL(document.currentScript.src).searchParams;
  let issued = 0;
  const widgets = new Map();
  window.turnstile = {
    render(container, options) {
      const id = 'fake-' + (widgets.size + 1);
      const label = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.addEventListener('change', () => {
        if (box.checked) options.callback('fake-token-' + ++issued);
        else options['expired-callback']();
      });
      label.append(box, ' I am not a robot');
      container.append(label);
      container.dataset.sitekey = options.sitekey;
      container.dataset.size = options.size;
      widgets.set(id, { box, label });
      return id;
    },
    reset(id) {
      const widget = widgets.get(id);
      if (widget) widget.box.checked = false;
    },
    remove(id) {
      widgets.get(id)?.label.remove();
      widgets.delete(id);
    },
  };
  window[params.get('onload')]();
})();
`;

export interface FakeWidget {
  /** The script's URL (CAPTCHA_SCRIPT_URL). */
  url: string;
  /** Each request's query, as the pages asked for the script. */
  requests: URLSearchParams[];
  stop(): Promise<void>;
}

export async function startFakeWidget(): Promise<FakeWidget> {
  const requests: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://loopback');
    if (url.pathname !== '/turnstile/v0/api.js') return void response.writeHead(404).end();
    requests.push(url.searchParams);
    response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
    response.end(WIDGET);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/turnstile/v0/api.js`,
    requests,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
