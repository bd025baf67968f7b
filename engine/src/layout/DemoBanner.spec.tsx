import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { render, screen } from '@testing-library/react';
import * as stories from './DemoBanner.stories';

const { Shown, Hidden } = composeStories(stories);

describe('DemoBanner', () => {
  it('warns that the data is fictitious when the tenant runs on the demo database', () => {
    render(<Shown />);
    expect(screen.getByRole('alert').textContent).toBe('Base de demonstração: os dados desta empresa são fictícios.');
  });

  it('shows nothing otherwise', () => {
    render(<Hidden />);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
