import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Boot } from './boot/Boot';
import { Shell } from './Shell';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Boot>{(config) => <Shell config={config} />}</Boot>
  </StrictMode>,
);
