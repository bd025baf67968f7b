import type { SvgIconProps } from '@mui/material/SvgIcon';
import AccountCircle from '@mui/icons-material/AccountCircle';
import AccountTree from '@mui/icons-material/AccountTree';
import Api from '@mui/icons-material/Api';
import Badge from '@mui/icons-material/Badge';
import Business from '@mui/icons-material/Business';
import Campaign from '@mui/icons-material/Campaign';
import Chat from '@mui/icons-material/Chat';
import Contacts from '@mui/icons-material/Contacts';
import Dashboard from '@mui/icons-material/Dashboard';
import ErrorOutline from '@mui/icons-material/ErrorOutlineOutlined';
import EventBusy from '@mui/icons-material/EventBusy';
import Extension from '@mui/icons-material/Extension';
import Forum from '@mui/icons-material/Forum';
import Groups from '@mui/icons-material/Groups';
import Handshake from '@mui/icons-material/Handshake';
import Hub from '@mui/icons-material/Hub';
import Inventory2 from '@mui/icons-material/Inventory2';
import LinkOff from '@mui/icons-material/LinkOff';
import ListAlt from '@mui/icons-material/ListAlt';
import LiveHelp from '@mui/icons-material/LiveHelp';
import LocalOffer from '@mui/icons-material/LocalOffer';
import Login from '@mui/icons-material/Login';
import MarkEmailRead from '@mui/icons-material/MarkEmailRead';
import NewReleases from '@mui/icons-material/NewReleases';
import PersonAdd from '@mui/icons-material/PersonAdd';
import PushPin from '@mui/icons-material/PushPin';
import QrCode2 from '@mui/icons-material/QrCode2';
import Queue from '@mui/icons-material/Queue';
import Schema from '@mui/icons-material/Schema';
import Settings from '@mui/icons-material/Settings';
import Store from '@mui/icons-material/Store';
import Summarize from '@mui/icons-material/Summarize';
import SupportAgent from '@mui/icons-material/SupportAgent';

/** The icons the route table names (schemas/src/routes.ts), imported one by one to keep the bundle small. */
const ICONS = {
  AccountCircle, AccountTree, Api, Badge, Business, Campaign, Chat, Contacts, Dashboard, ErrorOutline, EventBusy, Extension,
  Forum, Groups, Handshake, Hub, Inventory2, LinkOff, ListAlt, LiveHelp, LocalOffer, Login, MarkEmailRead, NewReleases, PersonAdd,
  PushPin, QrCode2, Queue, Schema, Settings, Store, Summarize, SupportAgent,
} as const;

/** Renders a route's icon by name; unknown names (integration icons) fall back to a list icon. */
export function RouteIcon({ name, ...props }: { name: string } & SvgIconProps) {
  const Icon = ICONS[name as keyof typeof ICONS] ?? ListAlt;
  return <Icon {...props} />;
}
