import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './GroupDrawer.stories';

const s = composeStories(stories);

describe('GroupDrawer (seed 001 §2 "Group drawer")', () => {
  it('titles the group with its subject and lists "Participantes" with name and international phone', () => {
    render(<s.Group />);
    expect(screen.getByRole('heading', { name: 'Condomínio Bloco B' })).toBeTruthy();
    expect(screen.getByText('Participantes')).toBeTruthy();
    expect(screen.getByText('Carla')).toBeTruthy();
    expect(screen.getByText('+55 (11) 98765.4321')).toBeTruthy();
    expect(screen.getAllByText('+55 (21) 91234.5678').length).toBeGreaterThan(0);
  });
});
