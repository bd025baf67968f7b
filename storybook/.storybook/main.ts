import type { StorybookConfig } from '@storybook/react-vite';

/**
 * Stories live beside their components (engine/src, console/src). `npm run storybook` serves
 * them on :6006; `npm run build-storybook` writes storybook/dist (CI builds it).
 */
const config: StorybookConfig = {
  stories: ['../../engine/src/**/*.stories.@(ts|tsx)', '../../console/src/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  // MUI's modules start with "use client", which a client-only bundle drops on purpose: hide
  // those hundreds of warnings so real ones stay visible. The preview is one big chunk by design.
  viteFinal: async (viteConfig) => ({
    ...viteConfig,
    build: {
      ...viteConfig.build,
      chunkSizeWarningLimit: 5000,
      rolldownOptions: {
        ...viteConfig.build?.rolldownOptions,
        onwarn(warning, warn) {
          if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
          warn(warning);
        },
      },
    },
  }),
};

export default config;
