import Box from '@mui/material/Box';
import Popper from '@mui/material/Popper';

export type HintPlacement = 'bottom' | 'top' | 'left' | 'right';

const OFFSET = [{ name: 'offset', options: { offset: [0, 8] } }];

/** The bubble of a Hint, styled as MUI Tooltip's (grey 700 at 92 %, 11 px, 4 px radius). */
export default function HintPopper({ anchorEl, title, placement }: { anchorEl: HTMLElement; title: string; placement: HintPlacement }) {
  return (
    <Popper open anchorEl={anchorEl} placement={placement} modifiers={OFFSET} sx={{ zIndex: 'tooltip', pointerEvents: 'none' }}>
      {/* Popper's own root has role="tooltip". */}
      <Box
        sx={{
          bgcolor: 'rgba(97, 97, 97, 0.92)',
          color: 'common.white',
          borderRadius: 1,
          px: 1,
          py: 0.5,
          fontSize: '0.6875rem',
          fontWeight: 500,
          lineHeight: 1.4,
          maxWidth: 300,
          fontFamily: 'fontFamily',
        }}
      >
        {title}
      </Box>
    </Popper>
  );
}
