import Webhook from '@mui/icons-material/Webhook';
import { WebhookList } from './WebhookList';
import { WebhookShow } from './WebhookShow';

export default { list: WebhookList, show: WebhookShow, icon: Webhook };
