import { lazy } from 'react';
import type { Meta, StoryObj } from '@storybook/react';
import Button from '@mui/material/Button';
import { LazyPart } from './LazyPart';

const Loaded = lazy(async () => ({ default: () => <p role="note">Menu carregado</p> }));
// What React.lazy gets when the chunk's request fails (offline, a replaced deploy).
const Unreachable = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Menu-x.js')));

/** A toolbar whose lazily loaded parts either load or cannot be fetched; the toolbar stays. */
function Toolbar({ reachable, parts = 1 }: { reachable: boolean; parts?: number }) {
  return (
    <div style={{ display: 'flex', gap: 8, padding: 16, alignItems: 'center' }}>
      <Button variant="contained">Status: online</Button>
      {Array.from({ length: parts }, (_, i) => (
        <LazyPart key={i}>{reachable ? <Loaded /> : <Unreachable />}</LazyPart>
      ))}
    </div>
  );
}

const meta: Meta<typeof Toolbar> = { title: 'Console/LazyPart', component: Toolbar, args: { reachable: true } };
export default meta;
type Story = StoryObj<typeof Toolbar>;

/** The part's chunk loads: it shows beside the rest. */
export const Reachable: Story = {};
/** The part's chunk cannot be fetched: the rest stays, and a notice at the foot offers a reload. */
export const Unavailable: Story = { args: { reachable: false } };
/** After a deploy every part fails alike: two failed parts, one notice. */
export const TwoUnavailable: Story = { args: { reachable: false, parts: 2 } };
