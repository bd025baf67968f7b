import { describe, expect, it } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { messages } from '@atendimento/schemas';
import * as stories from './DraggableListWidget.stories';
import { move } from './DraggableListWidget';

const { OrderedAgents, Empty } = composeStories(stories);
const submitted = () => JSON.parse(screen.getByTestId('submitted').textContent!);
const rows = () => within(screen.getByRole('list', { name: 'Ordem dos agentes' })).getAllByRole('listitem').map((item) => item.textContent);

describe('DraggableListWidget', () => {
  it('titles the ids by lookup and reorders with the arrows', async () => {
    const user = userEvent.setup();
    render(<OrderedAgents />);
    expect(await screen.findByText('1. Ana Agente')).toBeTruthy();
    expect(rows()).toEqual(['1. Ana Agente', '2. Bruno Souza', '3. Carla Dias']);
    expect((screen.getByRole('button', { name: `${messages.registers.moveUp}: Ana Agente` }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: `${messages.registers.moveDown}: Ana Agente` }));
    expect(rows()).toEqual(['1. Bruno Souza', '2. Ana Agente', '3. Carla Dias']);
    await user.click(screen.getByRole('button', { name: messages.registers.save }));
    expect(submitted()).toEqual({ orderedAgents: ['u-bruno', 'u-ana', 'u-carla'] });
  });

  it('moves a dragged row to where it is dropped', async () => {
    render(<OrderedAgents />);
    await screen.findByText('1. Ana Agente');
    const items = within(screen.getByRole('list', { name: 'Ordem dos agentes' })).getAllByRole('listitem');
    fireEvent.dragStart(items[2]!);
    fireEvent.drop(items[0]!);
    expect(rows()).toEqual(['1. Carla Dias', '2. Ana Agente', '3. Bruno Souza']);
  });

  it('says the list is empty without entries', () => {
    render(<Empty />);
    expect(screen.getByText(messages.table.empty)).toBeTruthy();
  });

  it('move() takes an item out and puts it at the new index', () => {
    expect(move(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(move(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });
});
