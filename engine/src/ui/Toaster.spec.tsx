import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './Toaster.stories';
import { showToast, TOAST_DURATION_MS } from './toast';

const { TopRight, BottomLeft } = composeStories(stories);

const region = () => screen.getAllByRole('alert')[0]!.parentElement!;

afterEach(() => vi.useRealTimers());

describe('Toaster', () => {
  it('stacks the toasts at the top right by default', () => {
    render(<TopRight />);
    expect(screen.getAllByRole('alert').map((toast) => toast.textContent)).toEqual(['Você não tem permissão para acessar este recurso.', 'Perfil atualizado!']);
    const style = getComputedStyle(region());
    expect([style.top, style.right, style.bottom, style.left]).toEqual(['16px', '16px', 'auto', 'auto']);
  });

  it('uses the configured corner', () => {
    render(<BottomLeft />);
    const style = getComputedStyle(region());
    expect([style.top, style.right, style.bottom, style.left]).toEqual(['auto', 'auto', '16px', '16px']);
  });

  it('closes a toast after 5000 ms', async () => {
    vi.useFakeTimers();
    render(<TopRight toasts={[]} />);
    act(() => void showToast('Registro Salvo!', 'success'));
    expect(TOAST_DURATION_MS).toBe(5000);
    await act(() => vi.advanceTimersByTimeAsync(4900));
    expect(screen.getByText('Registro Salvo!')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByText('Registro Salvo!')).toBeNull();
  });

  it('pauses the countdown while the pointer is over the toast', async () => {
    vi.useFakeTimers();
    render(<TopRight toasts={[]} />);
    act(() => void showToast('Registro Salvo!', 'success'));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    fireEvent.mouseEnter(screen.getByRole('alert'));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByText('Registro Salvo!')).toBeTruthy();
    fireEvent.mouseLeave(screen.getByRole('alert'));
    await act(() => vi.advanceTimersByTimeAsync(1900));
    expect(screen.getByText('Registro Salvo!')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(screen.queryByText('Registro Salvo!')).toBeNull();
  });

  it("is dismissed with its 'Fechar' button", async () => {
    render(<TopRight />);
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'Fechar' })[0]!);
    expect(screen.queryByText('Você não tem permissão para acessar este recurso.')).toBeNull();
    expect(screen.getByText('Perfil atualizado!')).toBeTruthy();
  });
});
