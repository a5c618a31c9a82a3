import { defaultDarkTheme, defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * react-admin's light theme with colours that keep text readable (WCAG AA, 4.5:1, checked by the e2e axe run):
 * its app bar blue and MUI's primary and warning colours are too light for white or near-white backgrounds.
 */
type Named = { 'aria-label'?: string };
const components = {
  // react-admin's loading indicator (app bar) is a progress bar without a name: every one gets one.
  MuiCircularProgress: { defaultProps: { 'aria-label': 'Loading' } },
  // react-admin names a list row's checkbox ("Select this row") on its outer element, where axe-core forbids the
  // name, and the checkbox input stays unnamed: every checkbox's name moves to its input.
  MuiCheckbox: {
    defaultProps: {
      slotProps: {
        root: () => ({ 'aria-label': undefined }),
        input: ({ 'aria-label': name }: Named) => (name ? { 'aria-label': name } : {}),
      },
    },
  },
};

export const lightTheme: RaThemeOptions = {
  ...defaultLightTheme,
  components: { ...defaultLightTheme.components, ...components },
  palette: {
    ...defaultLightTheme.palette,
    primary: { main: '#1565c0' },
    secondary: { light: '#5e92f3', main: '#1565c0', dark: '#003c8f', contrastText: '#fff' },
    warning: { main: '#a84300' },
    // Red text buttons stay readable on the bulk actions bar's tinted background too.
    error: { main: '#b71c1c' },
  },
};

export const darkTheme: RaThemeOptions = {
  ...defaultDarkTheme,
  components: { ...defaultDarkTheme.components, ...components },
};
