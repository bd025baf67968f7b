import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeStories } from '@storybook/react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as stories from './AvatarCropDialog.stories';
import { SAMPLE_PHOTO } from '../stories/fixtures';

const { Default, Closed } = composeStories(stories);

/** jsdom lays nothing out: give the crop area and the photo the sizes a browser would. */
function layOut(image: HTMLImageElement) {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ x: 0, y: 0, top: 0, left: 0, right: 400, bottom: 300, width: 400, height: 300, toJSON: () => ({}) });
  Object.defineProperties(image, {
    naturalWidth: { value: 640 },
    naturalHeight: { value: 480 },
    offsetWidth: { value: 400 },
    offsetHeight: { value: 300 },
  });
  fireEvent.load(image);
}

afterEach(() => vi.restoreAllMocks());

describe('AvatarCropDialog', () => {
  it("opens with the picked photo under 'Ajustar foto' and a zoom slider", () => {
    render(<Default />);
    expect(screen.getByRole('heading', { name: 'Ajustar foto' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Zoom' })).toBeTruthy();
    expect(screen.getByRole('dialog').querySelector('img')!.getAttribute('src')).toBe(SAMPLE_PHOTO);
  });

  it('stays closed without a photo', () => {
    render(<Closed />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('crops the chosen square to a 512×512 JPEG and hands it over', async () => {
    const crop = vi.fn(async () => 'data:image/jpeg;base64,AAAA');
    const onCropped = vi.fn();
    render(<Default crop={crop} onCropped={onCropped} />);
    const save = screen.getByRole('button', { name: 'Salvar' }) as HTMLButtonElement;
    // Nothing to save until the photo is laid out.
    expect(save.disabled).toBe(true);
    layOut(screen.getByRole('dialog').querySelector('img')!);
    await waitFor(() => expect(save.disabled).toBe(false));
    await userEvent.setup().click(save);
    await waitFor(() => expect(onCropped).toHaveBeenCalledWith('data:image/jpeg;base64,AAAA'));
    const [src, area] = crop.mock.calls[0] as unknown as [string, { width: number; height: number }];
    expect(src).toBe(SAMPLE_PHOTO);
    // The crop is square (aspect 1), taken from the photo's own pixels.
    expect(area.width).toBe(area.height);
    expect(area.width).toBeGreaterThan(0);
  });

  it('cancels', async () => {
    const onCancel = vi.fn();
    render(<Default onCancel={onCancel} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).toHaveBeenCalled();
  });
});
