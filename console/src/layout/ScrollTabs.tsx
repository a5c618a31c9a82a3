import { TabbedShowLayoutTabs } from 'react-admin';

/** Tabs that scroll sideways instead of widening the page in a narrow window. */
export const scrollTabs = <TabbedShowLayoutTabs variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile />;
