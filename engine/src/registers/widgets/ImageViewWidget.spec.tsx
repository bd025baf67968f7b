import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { messages } from '@atendimento/schemas';
import * as stories from './ImageViewWidget.stories';

const { QrCode, NoImage } = composeStories(stories);

afterEach(() => vi.restoreAllMocks());

describe('ImageViewWidget', () => {
  it("shows the image with 'Copiar link' (toasting 'Copiado') and 'Baixar'", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<QrCode />);
    const image = screen.getByRole('img', { name: 'QR Code' }) as HTMLImageElement;
    expect(image.src).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByRole('link', { name: messages.registers.download }).getAttribute('href')).toBe(image.getAttribute('src'));
    fireEvent.click(screen.getByRole('button', { name: messages.registers.copyLink }));
    expect(await screen.findByText(messages.table.copied)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(image.getAttribute('src'));
  });

  it("toasts 'Falha ao copiar' when the clipboard refuses", async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => Promise.reject(new Error('denied')) }, configurable: true });
    render(<QrCode />);
    fireEvent.click(screen.getByRole('button', { name: messages.registers.copyLink }));
    expect(await screen.findByText(messages.table.copyFailed)).toBeTruthy();
  });

  it("says 'Sem imagem' without one", () => {
    render(<NoImage />);
    expect(screen.getByText(messages.registers.noImage)).toBeTruthy();
  });

  it('falls back to the message when the image fails to load', () => {
    render(<QrCode />);
    fireEvent.error(screen.getByRole('img', { name: 'QR Code' }));
    expect(screen.getByText(messages.registers.noImage)).toBeTruthy();
  });
});
