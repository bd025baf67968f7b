import type { Preview } from '@storybook/react';

/**
 * Global story settings. Each package's stories bring their own providers (the engine's
 * StoryShell: theme, tenant configuration, router, session and a fake API), so the same
 * stories render unchanged in Storybook and in the vitest specs (composeStories).
 */
const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    controls: { expanded: false },
  },
};

export default preview;
