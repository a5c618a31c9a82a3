import { useEffect, useRef } from 'react';
import { Sidebar as RaSidebar, type SidebarProps, useSidebarState } from 'react-admin';
import { useNarrow } from './useNarrow';

/**
 * react-admin's menu, following the window's width. Below 600 px react-admin shows it as a modal drawer opened by
 * the same flag that keeps it expanded on a wide window, so a window narrowed while the menu was expanded (or a
 * page opened narrow after a wide visit: the flag is stored) would open the drawer by itself; closed again at
 * once, MUI's modal could stay behind, invisible, over the page, taking its clicks and hiding the page from screen
 * readers. The drawer therefore never opens on the render that narrows the window, and the flag is cleared;
 * widening expands the menu again, as react-admin does on a wide window.
 */
export function Sidebar(props: SidebarProps) {
  const narrow = useNarrow();
  const [open, setOpen] = useSidebarState();
  const wasNarrow = useRef(false);
  const justNarrowed = narrow && !wasNarrow.current;
  useEffect(() => {
    if (narrow && !wasNarrow.current) setOpen(false);
    else if (!narrow && wasNarrow.current) setOpen(true);
    wasNarrow.current = narrow;
  }, [narrow, setOpen]);
  return <RaSidebar {...props} open={justNarrowed ? false : open} />;
}
